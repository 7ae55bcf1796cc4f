entry @gather_ptr_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %10 = broadcast %9 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %11 = offset %10, %7 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %12 = constant <i32: 0> : tile<128xi32>
  %13 = cmpi greater_than_or_equal %7, %12, signed : tile<128xi32> -> tile<128xi1>
  %14 = constant <i32: 700> : tile<128xi32>
  %15 = cmpi less_than %7, %14, signed : tile<128xi32> -> tile<128xi1>
  %16 = andi %13, %15 : tile<128xi1>
  %17 = constant <f32: -1.000000e+00> : tile<128xf32>
  %18, %19 = load_ptr_tko weak %11, %16, %17 token=%8 : tile<128xptr<f32>>, tile<128xi1>, tile<128xf32> -> tile<128xf32>, token
  %20 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %21 = make_tensor_view %20, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %22 = make_partition_view %21 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %23 = store_view_tko weak %18, %22[%1] token = %19 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> token
  return
}
