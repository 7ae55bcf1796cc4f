entry @partial_sum_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [4096], strides = [1] : tensor_view<4096xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(512), padding_value = zero, tensor_view<4096xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<4096xf32, strides=[1]>>, tile<i32> -> tile<512xf32>, token
  %9 = reduce %7 dim=0 identities=[0.000000e+00 : f32] : tile<512xf32> -> tile<f32> 
  (%10: tile<f32>, %11: tile<f32>) {
    %12 = addf %10, %11  : tile<f32>
    yield %12 : tile<f32>
  }
  %13 = reshape %9 : tile<f32> -> tile<1xf32>
  %14 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %15 = make_tensor_view %14, shape = [8], strides = [1] : tensor_view<8xf32, strides=[1]>
  %16 = make_partition_view %15 : partition_view<tile=(1), padding_value = zero, tensor_view<8xf32, strides=[1]>>
  %17 = store_view_tko weak %13, %16[%1] token = %8 : tile<1xf32>, partition_view<tile=(1), padding_value = zero, tensor_view<8xf32, strides=[1]>>, tile<i32> -> token
  return
}
