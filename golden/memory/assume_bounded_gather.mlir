entry @assume_bounded_gather(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [2048], strides = [1] : tensor_view<2048xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
  %9 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %10 = broadcast %9 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %11 = constant <i32: 255> : tile<256xi32>
  %12 = andi %7, %11 : tile<256xi32>
  %13 = assume bounded<0, 255>, %12 : tile<256xi32>
  %14 = offset %10, %13 : tile<256xptr<f32>>, tile<256xi32> -> tile<256xptr<f32>>
  %15, %16 = load_ptr_tko weak %14 token=%8 : tile<256xptr<f32>> -> tile<256xf32>, token
  %17 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %18 = make_tensor_view %17, shape = [2048], strides = [1] : tensor_view<2048xf32, strides=[1]>
  %19 = make_partition_view %18 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>
  %20 = store_view_tko weak %15, %19[%1] token = %16 : tile<256xf32>, partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>, tile<i32> -> token
  return
}
