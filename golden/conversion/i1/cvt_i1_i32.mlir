entry @cvt_i1_i32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [512], strides = [1] : tensor_view<512xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %10 = make_tensor_view %9, shape = [512], strides = [1] : tensor_view<512xf32, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf32, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %14 = cmpf greater_than ordered %7, %12 : tile<128xf32> -> tile<128xi1>
  %15 = exti %14 unsigned : tile<128xi1> -> tile<128xi32>
  %16 = assume div_by<16>, %arg2 : tile<ptr<i32>>
  %17 = make_tensor_view %16, shape = [512], strides = [1] : tensor_view<512xi32, strides=[1]>
  %18 = make_partition_view %17 : partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>
  %19 = store_view_tko weak %15, %18[%1] token = %13 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>, tile<i32> -> token
  return
}
